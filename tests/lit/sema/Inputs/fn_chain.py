"""Prints a chain of N nested `fn` calls: kernel k calls f{N-1}, which calls
f{N-2}, ..., down to f0 (line 1). Usage: fn_chain.py N"""
import sys

n = int(sys.argv[1])
print("fn f0(x: i32) -> i32 { return x + 1; }")
for i in range(1, n):
    print("fn f%d(x: i32) -> i32 { return f%d(x) + 1; }" % (i, i - 1))
print("kernel k(out: *i32) { store(out, f%d(0)); }" % (n - 1))
