"""The process supervisor behind loom.launch: start the ranks, watch them, stop them together.

A distributed job is only useful while all its ranks run: one dead rank leaves the others
blocked in a collective for ever. So the first rank to fail stops the rest, and a signal to
the launcher (Ctrl-C, a scheduler's SIGTERM, a closed terminal's SIGHUP) reaches every rank.

Each rank runs in its own session, hence its own process group: signals go to the whole
group, so whatever a rank started itself (data-loader workers, a compiler) stops with it,
and a Ctrl-C on the launcher's terminal reaches the ranks once, through the launcher,
rather than twice.
"""
import os
import signal
import subprocess
import sys
import time

FORWARDED = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)
_TICK = 0.05  # seconds between checks: prompt enough, and no CPU spent spinning
_REAP_LIMIT = 5.0  # after SIGKILL, how long to wait for the kernel to reap before giving up


def _signame(num):
    try:
        return signal.Signals(num).name
    except ValueError:
        return f"signal {num}"


def shell_status(returncode):
    """Popen's returncode as a shell reports it: -9 (killed by SIGKILL) -> 137."""
    return 128 - returncode if returncode < 0 else returncode


def _describe(returncode):
    if returncode < 0:
        return f"status {shell_status(returncode)} (killed by {_signame(-returncode)})"
    return f"status {returncode}"


def _plural(n):
    return f"{n} process" if n == 1 else f"{n} processes"


class Rank:
    """One started child: its rank, its Popen, and its exit code once reaped."""

    def __init__(self, rank, proc):
        self.rank, self.proc, self.returncode = rank, proc, None

    @property
    def pid(self):
        return self.proc.pid


class Supervisor:
    """Starts commands as ranks and runs them to the end; `run()` gives the launcher's status.

    The exit status: 0 when every rank exits 0; else the status of the first rank to fail
    (128+N when signal N killed it). When the launcher itself is signalled, 128+N for the
    first such signal, whatever the ranks then exit with: the job was interrupted, and a
    rank that checkpoints and exits 0 on SIGTERM must not make it look complete.
    """

    def __init__(self, grace, stderr=None):
        self.grace = float(grace)
        self.stderr = stderr or sys.stderr
        self.ranks = []
        self._signals = []       # signals received, appended by the handler
        self._handled = 0        # how many of them the loop has acted on
        self._status = None      # the launcher's exit status, fixed by the first event
        self._deadline = None    # when survivors of a stop get SIGKILL
        self._killed_at = None

    # ------------------------------------------------------------ setup

    def install_signal_handlers(self):
        """Record forwarded signals; the loop acts on them. Installed before the first child
        starts, so a Ctrl-C during start-up cannot kill the launcher and orphan the ranks."""
        def on_signal(signum, frame):
            self._signals.append(signum)
        for sig in FORWARDED:
            signal.signal(sig, on_signal)

    def start(self, rank, argv, env):
        """Start one rank in a new session. Returns False (and starts nothing) once a signal
        arrived: starting ranks of a job being stopped only delays the stop."""
        if self._signals:
            return False
        proc = subprocess.Popen(argv, env=env, start_new_session=True)
        self.ranks.append(Rank(rank, proc))
        return True

    def abort(self, status, why):
        """Stop the ranks started so far (a later one could not start) and exit with status."""
        self._log(why)
        if self._status is None:
            self._status = status
        self._begin_stop(signal.SIGTERM)

    # ------------------------------------------------------------ signalling

    def _running(self):
        return [r for r in self.ranks if r.returncode is None]

    def _send(self, sig, ranks):
        for r in ranks:
            try:
                # The group's id is the rank's pid (start_new_session). The leader is not yet
                # reaped, so the id cannot belong to anyone else.
                os.killpg(r.pid, sig)
            except (ProcessLookupError, PermissionError):
                pass  # the whole group is gone already

    def _log(self, line):
        print(f"[loom.launch] {line}", file=self.stderr, flush=True)

    def _begin_stop(self, sig):
        self._send(sig, self._running())
        if self._deadline is None:
            self._deadline = time.monotonic() + self.grace

    def _kill_survivors(self, why):
        alive = self._running()
        if alive:
            self._log(f"{why}; sending SIGKILL to {_plural(len(alive))}")
            self._send(signal.SIGKILL, alive)
        self._killed_at = time.monotonic()

    # ------------------------------------------------------------ the loop

    def _on_signals(self):
        while self._handled < len(self._signals):
            sig = self._signals[self._handled]
            self._handled += 1
            alive = self._running()
            if self._status is not None and self._killed_at is None and self._handled > 1:
                # A second Ctrl-C: the user does not want to wait out the grace period.
                self._kill_survivors(f"got {_signame(sig)} again")
                continue
            if self._status is None:
                self._status = 128 + sig
            self._log(f"got {_signame(sig)}; forwarding it to {_plural(len(alive))}"
                      f" (SIGKILL after {self.grace:g} s)")
            self._begin_stop(sig)

    def _reap(self):
        for r in self._running():
            code = r.proc.poll()
            if code is None:
                continue
            r.returncode = code
            if code != 0 and self._status is None:
                self._status = shell_status(code)
                others = len(self._running())
                tail = f"; stopping the other {_plural(others)}" if others else ""
                self._log(f"rank {r.rank} (pid {r.pid}) exited with {_describe(code)}{tail}")
                self._begin_stop(signal.SIGTERM)

    def run(self):
        """Wait for every rank, stopping all when one fails or a signal arrives."""
        while True:
            self._on_signals()
            self._reap()
            if not self._running():
                break
            now = time.monotonic()
            if self._killed_at is None and self._deadline is not None and now >= self._deadline:
                self._kill_survivors(f"still running {self.grace:g} s after the stop")
            elif self._killed_at is not None and now - self._killed_at > _REAP_LIMIT:
                self._log(f"{_plural(len(self._running()))} survived SIGKILL; giving up on them")
                break
            time.sleep(_TICK)
        if self._status is not None:
            # Whatever the ranks left behind in their groups (a worker that outlived its
            # rank) goes too; a rank that exited cleanly before the stop keeps its own.
            self._send(signal.SIGKILL, [r for r in self.ranks if r.returncode != 0])
        return self._status or 0
