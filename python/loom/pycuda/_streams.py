"""pycuda.driver's Stream and Event: loom's, with PyCUDA's method names."""
import loom


class Stream(loom.Stream):
    """A stream on the current device (loom.Stream; `with stream:` makes it current)."""

    def __init__(self, flags=0):
        # PyCUDA's stream_flags.NON_BLOCKING (CU_STREAM_NON_BLOCKING) is 1.
        super().__init__(non_blocking=bool(int(flags) & 1))

    def is_done(self):
        return self.query()

    def wait_for_event(self, event):
        self.wait_event(event)


class Event(loom.Event):
    """An event (loom.Event) with PyCUDA's timing names: end.time_since(start) in ms."""

    def __init__(self, flags=0):
        super().__init__()

    def record(self, stream=None):
        super().record(stream) if stream is not None else super().record()
        return self

    def synchronize(self):
        super().synchronize()
        return self

    def time_since(self, earlier):
        """Milliseconds from `earlier` to this event."""
        return earlier.elapsed_time(self)

    def time_till(self, later):
        """Milliseconds from this event to `later`."""
        return self.elapsed_time(later)
