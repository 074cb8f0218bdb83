"""Where raisus_panel leans on the insides of Panel, Bokeh and jupyter_bokeh, and for which versions.

A few fixes and shims work around upstream behaviour through private names. Each one applies only
on the versions in :data:`TESTED` (:func:`tested`; on any other it stays off and says so once), the
package's bounds in ``pyproject.toml`` allow only those versions (``tests/test_upstream.py`` holds
the two together), and each has a test that fails when the upstream behaviour it relies on changes.
To raise a bound: run those tests on the new version, then change :data:`TESTED` and the bound.
One hook needs no version: ``ENTER_COMMITS_JS`` acts only on an Enter that JupyterLab has just
cancelled, so where JupyterLab no longer does, it does nothing.

========================  ==================================  =============================================
hook                      package: the upstream behaviour     its test
========================  ==================================  =============================================
notebook.OrderedComm      panel: an output's messages sent    tests/jupyterlab/test_panel_fixes.py
                          out of order before its comm opens
notebook.MainThreadComm   panel: clicks handled on comm       tests/jupyterlab/test_panel_fixes.py
                          threads, in no order
notebook stylesheets      panel: one document's style sheets  tests/jupyterlab/test_panel_fixes.py
                          reused by another's models; sheets
                          loaded from the CDN when offline
notebook loader           panel: BokehJS inlined into every   tests/jupyterlab/test_panel_fixes.py
                          saved notebook (6 MB each)
notebook.NO_ECHO_JS       panel: the page sends back the      tests/jupyterlab/test_panel_fixes.py
                          changes it just received
NO_ECHO_WIDGETS_JS        jupyter_bokeh: the same, for the    tests/jupyterlab/test_panel_fixes.py
                          ipywidgets view
ENTER_COMMITS_JS          jupyterlab: Enter in a field inside tests/jupyterlab/test_notebook_views.py
                          a cell is cancelled (its input
                          guard): no commit, no new line;
                          acts only when JupyterLab cancels
wire.short_errors         bokeh: a refused message's whole    tests/room_served/test_hostile_messages.py
                          traceback in the server log
wire.lean_serialisation   bokeh: every default property sent  tests/room_served/test_lean_serialisation.py
                          with every new model
keyboard.keyboard_tabs    bokeh: tab headers ignore keys      tests/room_served/test_keyboard_tabs.py
bounds._let_go            bokeh: a session that never draws   tests/room_served/test_page_bounds.py
                          itself is kept until it expires
ui._base.Button           panel: a widget's params reach its  tests/ui/test_contest_view.py
                          model through ``_rename`` and
                          ``_process_param_change`` (title)
========================  ==================================  =============================================
"""

from __future__ import annotations

import importlib
import logging

__all__ = ["TESTED", "tested", "version", "warn_untested"]

#: The versions (prefixes) each hook above was written for and tested with.
TESTED: dict[str, str] = {"panel": "1.9.", "bokeh": "3.9.", "jupyter_bokeh": "4."}

_warned: set[tuple[str, str]] = set()


def version(package: str) -> str | None:
    """The installed ``package``'s version (its module's ``__version__``, read now), or None."""
    try:
        return str(importlib.import_module(package).__version__)
    except ImportError:
        return None


def tested(package: str) -> bool:
    """Whether the installed ``package`` is a version the hooks were written for."""
    installed = version(package)
    return installed is not None and installed.startswith(TESTED[package])


def warn_untested(package: str, hook: str, log: logging.Logger) -> None:
    """Say once per process that ``hook`` stays off on this version of ``package``."""
    if (package, hook) in _warned:
        return
    _warned.add((package, hook))
    log.warning("%s was written for %s %sx, not %s: it stays off (install the versions pyproject.toml names)",
                hook, package, TESTED[package], version(package))
