"""Resident memory of a child process, for the tests that bound it (streaming, spilling,
the shell's streamed output): `status_kib` reads one /proc/<pid>/status field,
`RssSampler` samples VmRSS on a thread and keeps the peak (with the process's own VmHWM
read at the end while it is alive), and `sanitizer_build` says why a binary's RSS means
nothing (a sanitizer or non-Release build), for a skip.

Sampling, not wait4's ru_maxrss: Linux carries the parent's peak (this pytest process,
with pyarrow loaded) across the exec, so ru_maxrss of a small child reads as the parent's.
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


class RssSampler:
    """Samples a process's VmRSS every 20 ms on a thread while in the `with` block; `peak`
    in bytes, raised at exit to the process's VmHWM when it is still running then."""

    def __init__(self, pid: int):
        self.pid = pid
        self.peak = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _sample(self, field: str) -> bool:
        try:
            self.peak = max(self.peak, status_kib(self.pid, field) * 1024)
            return True
        except OSError:
            return False

    def _run(self):
        while not self._stop.is_set():
            if not self._sample("VmRSS"):
                return
            self._stop.wait(0.02)

    def __enter__(self):
        self._thread.start()
        return self

    def __exit__(self, *exc):
        self._stop.set()
        self._thread.join()
        self._sample("VmHWM")
