# The @config lines of one kernel of samples/attention.blk, for the scripts
# that write variants of the sample (make_bwd_variants.py).


def kernel_block(s, name):
    """(start, end) of the run of @config lines right before the @requires
    of `kernel name(`."""
    k = s.index('kernel %s(' % name)
    req = s.rindex('@requires', 0, k)
    start = req
    while True:
        prev = s.rindex('\n', 0, start - 1) + 1
        if not s[prev:].startswith('@config'):
            break
        start = prev
    return start, req


def set_configs(s, name, lines):
    """`s` with kernel `name`'s @config lines replaced by `lines`."""
    a, b = kernel_block(s, name)
    return s[:a] + ''.join(l + '\n' for l in lines) + s[b:]
