"""Where raisus_panel leans on the insides of Panel, Bokeh, jupyter_bokeh, pyviz_comms, ipykernel and comm.

A few fixes and shims work around upstream behaviour through private names. Each one that can go
wrong without a word applies only on the versions in :data:`TESTED` (:func:`tested`; on any other it
stays off and says so once, :func:`warn_untested`), the package's bounds in ``pyproject.toml`` allow
only those versions (``tests/test_upstream.py`` holds the two together), and each has a test that
fails when the upstream behaviour it relies on changes. To raise a bound: run those tests on the new
version, then change :data:`TESTED` and the bound.

Some need no gate, said in their row: ``ENTER_COMMITS_JS`` acts only on an Enter that JupyterLab has
just cancelled; ``short_errors`` is applied on any Bokeh (off, a client would get tracebacks) and
says so when untested; the widgets' ``_rename``/``_process_param_change`` and ``ComponentBase``'s
``_create_view`` only add to what Panel does (off would be what a changed Panel does anyway: no
title, no reason, a view that forgets its component), and a Panel that changes them fails their tests.

Every name in the first column is where the package does it (module.name, below raisus_panel);
``tests/test_upstream.py`` scans the package and fails when a monkeypatch, an override of a private
method, or a read of a private name of those packages is not in this table.

======================================  ==================================  ============================================
hook                                    package: the upstream behaviour     its test
======================================  ==================================  ============================================
notebook.OrderedComm                    panel, pyviz_comms: an output's     tests/jupyterlab/test_panel_fixes.py
notebook._order_comms                   messages sent out of order before
                                        its comm opens (JupyterComm's
                                        ``_comm``)
notebook.MainThreadComm                 panel, pyviz_comms: clicks handled  tests/jupyterlab/test_panel_fixes.py
notebook._main_thread_comms             on comm threads, in no order
                                        (Comm's ``_handle_open``,
                                        ``_handle_msg``)
notebook._keep_early_messages           ipykernel, comm: a comm message     tests/jupyterlab/test_panel_fixes.py
                                        that comes before its comm opens
                                        is dropped (``shell_handlers``,
                                        ``_msg_callback``)
notebook._stylesheets_per_document      panel: one document's style sheets  tests/jupyterlab/test_panel_fixes.py
                                        reused by another's models
                                        (Syncable's
                                        ``_process_param_change``)
notebook._inline_stylesheets            panel: sheets loaded from the CDN   tests/jupyterlab/test_panel_fixes.py
                                        when offline
                                        (``patch_stylesheet``)
notebook.extension                      panel: BokehJS inlined into every   tests/jupyterlab/test_panel_fixes.py
notebook._load_notebook_from_jupyter    saved notebook, 6 MB each
notebook._jupyter_server_loader         (``load_notebook``,
                                        ``_autoload_js``)
notebook.NO_ECHO_JS                     panel: the page sends back the      tests/jupyterlab/test_panel_fixes.py
                                        changes it just received
notebook.NO_ECHO_WIDGETS_JS             jupyter_bokeh: the same, for the    tests/jupyterlab/test_panel_fixes.py
                                        ipywidgets view
notebook.ENTER_COMMITS_JS               jupyterlab: Enter in a field        tests/jupyterlab/test_notebook_views.py
                                        inside a cell is cancelled (its
                                        input guard): no commit, no new
                                        line; acts only when JupyterLab
                                        cancels, no gate
dashboard.wire.send_utf8                bokeh: every message's text sent    tests/room_served/test_wire_hooks.py
                                        as ``\\u`` escapes
                                        (``message.serialize_json``)
dashboard.wire.short_errors             bokeh: a refused message's whole    tests/room_served/test_hostile_messages.py
                                        traceback sent to the client;
                                        applied on any Bokeh, said when
                                        untested
dashboard.wire.lean_serialisation       bokeh: every default property       tests/room_served/test_lean_serialisation.py
dashboard.wire._lean_query              computed for every new model
dashboard.keyboard.keyboard_tabs        bokeh: tab headers ignore keys      tests/room_served/test_keyboard_tabs.py
dashboard.bounds._let_go                bokeh: a session that never draws   tests/room_served/test_page_bounds.py
                                        itself is kept until it expires
dashboard.reconnect.watch_connection    bokeh: no public way to stop        tests/room_served/test_wire_hooks.py
dashboard.reconnect.ON_CONNECTION_LOST  BokehJS's retries
                                        (ConnectionLost's ``connection``,
                                        ``closed_permanently``)
ui._base.Button                         panel: a widget's params reach its  tests/ui/test_panel_hooks.py
ui._base.ScriptButton                   model through ``_rename`` and
ui._base._SaysWhy                       ``_process_param_change`` (title,
ui._base.TextInput                      why, script), made by
ui._base.IntInput                       ``_get_model``; no gate, see above
ui._base.TextAreaInput
ui._base.Select
ui._base.HTML                           panel: a text change recomputes     tests/ui/test_panel_hooks.py
                                        every property of the model
                                        (``_update``,
                                        ``_process_param_change``)
ui._base._NoLayout                      panel: every pane makes a ``Row``   tests/ui/test_panel_hooks.py
                                        of itself (``default_layout``,
                                        read back as ``layout._models``);
                                        no gate: a change fails loudly
ui._base.ComponentBase                  panel: a Viewer's view does not     tests/ui/test_panel_hooks.py
                                        keep its Viewer
                                        (``_create_view``); no gate, see
                                        above
ui._charts.FigurePane                   panel: a Bokeh pane moves its       tests/ui/test_panel_hooks.py
                                        figure into the newest document
                                        (``_get_model``, ``_cleanup``,
                                        ``_models``, ``_design``)
======================================  ==================================  ============================================
"""

from __future__ import annotations

import importlib
import logging

__all__ = ["TESTED", "tested", "version", "warn_untested"]

#: The versions (prefixes) each hook above was written for and tested with.
TESTED: dict[str, str] = {"panel": "1.9.", "bokeh": "3.9.", "jupyter_bokeh": "4.", "pyviz_comms": "3.",
                          "ipykernel": "7.", "comm": "0.2."}

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
