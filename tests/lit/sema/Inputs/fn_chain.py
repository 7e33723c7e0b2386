"""Prints a chain of N nested `fn` calls: kernel k calls f{N-1}, which calls
f{N-2}, ..., down to f0 (line 1). Each call is the innermost operand of
HEIGHT additions (`f(x) + 1 + 1 ...`), so every level is HEIGHT expressions
deep. Usage: fn_chain.py N [HEIGHT]"""
import sys

n = int(sys.argv[1])
height = int(sys.argv[2]) if len(sys.argv) > 2 else 1
print("fn f0(x: i32) -> i32 { return x + 1; }")
for i in range(1, n):
    print("fn f%d(x: i32) -> i32 { return f%d(x)%s; }" % (i, i - 1, " + 1" * height))
print("kernel k(out: *i32) { store(out, f%d(0)); }" % (n - 1))
