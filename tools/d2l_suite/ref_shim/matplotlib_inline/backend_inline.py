def set_matplotlib_formats(*a, **k):
    pass
