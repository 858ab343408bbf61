"""The parts of the benchmark, one module each: NAME, measure(ctx) and report(ctx, measured)."""
