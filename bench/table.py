"""The aligned tables the benchmarks in this folder print."""


def print_rows(header, lines):
    """Prints `header` and `lines` (lists of cells) in left-aligned columns."""
    widths = [max(len(str(x)) for x in col) for col in zip(header, *lines)]
    print("  ".join(str(h).ljust(w) for h, w in zip(header, widths)))
    print("  ".join("-" * w for w in widths))
    for line in lines:
        print("  ".join(str(x).ljust(w) for x, w in zip(line, widths)))
