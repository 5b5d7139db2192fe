"""Counts checks and prints the interop summary line."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Tally:
    """Passed and failed checks of one run, each printed as it happens."""

    label: str
    passed: int = 0
    failed: int = 0
    failures: list[str] = field(default_factory=list)

    def check(self, ok: bool, what: str) -> None:
        """Records one check."""
        if ok:
            self.passed += 1
        else:
            self.failed += 1
            self.failures.append(what)
        print(f"    {'ok  ' if ok else 'FAIL'} {what}", flush=True)

    def summary(self) -> str:
        """The line the orchestrator reads: `interop <label>: N passed, M failed`."""
        return f"interop {self.label}: {self.passed} passed, {self.failed} failed"
