"""Resident memory of a child process, for the tests that bound it (Flight streaming,
spilling, the shell's streamed output): `status_kib` reads one /proc/<pid>/status field;
`RssSampler` samples VmRSS on a thread while in a `with` block and keeps the peak (raised
at exit to the process's own VmHWM while it is alive); `Poller` is that sampling thread,
for other watchers (test_memory_spill.SpillWatch); `sanitizer_build` says why a binary's
RSS means nothing (a sanitizer or non-Release build), for a skip.

Sampling, not wait4's ru_maxrss: at exec Linux keeps the forked child's earlier peak (a
copy of this pytest process, pyarrow loaded) in ru_maxrss.
"""

from __future__ import annotations

import threading
from pathlib import Path


def sanitizer_build(binary: Path) -> str | None:
    """Why `binary` is not a Release build (its CMakeCache.txt, else ASan symbols), or None."""
    for parent in binary.resolve().parents:
        cache = parent / "CMakeCache.txt"
        if cache.is_file():
            text = cache.read_text(errors="replace")
            if "SQE_SANITIZE:BOOL=ON" in text:
                return f"{binary} is a sanitizer build (SQE_SANITIZE=ON in {cache})"
            if "CMAKE_BUILD_TYPE:STRING=Release" not in text:
                return f"{binary} is not a Release build ({cache})"
            return None
    with open(binary, "rb") as f:
        if b"__asan_init" in f.read():
            return f"{binary} is linked with AddressSanitizer"
    return None


def status_kib(pid: int, field: str) -> int:
    """Field `field` ("VmRSS", "VmHWM", ...) of /proc/<pid>/status in KiB; 0 when absent.
    OSError once the process is gone."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    return 0


class Poller:
    """Calls `sample()` every `interval` seconds on a thread while in the `with` block, and
    once more at exit (`final()`); `sample()` returning False ends the polling."""

    interval = 0.02

    def __init__(self):
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def sample(self) -> bool:
        raise NotImplementedError

    def final(self) -> None:
        pass

    def _run(self):
        while not self._stop.is_set():
            if self.sample() is False:
                return
            self._stop.wait(self.interval)

    def __enter__(self):
        self._thread.start()
        return self

    def __exit__(self, *exc):
        self._stop.set()
        self._thread.join()
        self.final()


class RssSampler(Poller):
    """Samples a process's VmRSS every 20 ms on a thread while in the `with` block; `peak`
    in bytes, raised at exit to the process's VmHWM when it is still running then."""

    def __init__(self, pid: int):
        super().__init__()
        self.pid = pid
        self.peak = 0

    def _read(self, field: str) -> bool:
        try:
            self.peak = max(self.peak, status_kib(self.pid, field) * 1024)
            return True
        except OSError:
            return False

    def sample(self) -> bool:
        return self._read("VmRSS")

    def final(self) -> None:
        self._read("VmHWM")
