"""What the parts of the benchmark share: settings, builds, timing and statistics, the summary."""
