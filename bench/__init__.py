"""Benchmarks, run by `make bench`: each times ours beside a reference in the same run."""
