"""The check counter the Python checkers share (alerts/fleet, alerts/multisite, the dashboards): one line per
check, `ok - WHAT` or `FAIL - WHAT: DETAIL`, flushed at once so a suite killed by its timeout still shows how
far it got, and a last line `NAME: P passed, F failed` that the suites' shell drivers read.

Usage:
    sys.path.insert(0, os.path.join(REPO, "exporter", "scripts"))
    from checks import Checks
    check = Checks("fleet-checks")
    check(rate > 0, "the rate is positive", f"got {rate}")
    return check.finish()
"""
import sys

DETAIL_LIMIT = 1500  # a failing check's detail may be a whole API answer; the first screenful says enough


class Checks:
    def __init__(self, name):
        self.name = name
        self.passed = 0
        self.failed = 0

    def __call__(self, ok, what, detail=""):
        if ok:
            self.passed += 1
            print(f"ok - {what}")
        else:
            self.failed += 1
            print(f"FAIL - {what}{': ' + str(detail)[:DETAIL_LIMIT] if detail else ''}")
        sys.stdout.flush()
        return ok

    def finish(self):
        """Prints the summary line; returns the exit status (1 when a check failed)."""
        print(f"{self.name}: {self.passed} passed, {self.failed} failed")
        sys.stdout.flush()
        return 1 if self.failed else 0
