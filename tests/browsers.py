"""Headless Chromium for the browser tests (tests/test_*browser.py), one per session.

Debian's ``chromium``, driven by Playwright. The tests skip only when Chromium or Playwright
is missing outside CI; in CI (``CI=true``) ``.ci/run`` installs Chromium and they must run.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = os.environ.get("CBJ_CHROMIUM", "/usr/bin/chromium")
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}


def browser_unavailable() -> str | None:
    """Why the browser tests cannot run here, or None when they can."""
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "playwright is not installed"
    if not (Path(CHROMIUM).exists() or shutil.which("chromium")):
        return f"no Chromium at {CHROMIUM}"
    return None


def launched_chromium() -> Iterator[Any]:
    """Headless Chromium, launched for a fixture to yield and closed after; skipped (failed
    in CI) when it cannot run here."""
    reason = browser_unavailable()
    if reason is not None:
        if os.environ.get("CI") == "true":
            pytest.fail(f"browser tests must run in CI: {reason}")
        pytest.skip(reason)
    from playwright.sync_api import sync_playwright

    executable = CHROMIUM if Path(CHROMIUM).exists() else shutil.which("chromium")
    with sync_playwright() as driver:
        launched = driver.chromium.launch(executable_path=executable, args=ARGS)
        yield launched
        launched.close()
