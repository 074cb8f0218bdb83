"""Loading Panel in a notebook for raisus_panel: offline, and with outputs that stay in step with the kernel.

Call :func:`extension` (exported as ``raisus_panel.extension``) at the top of a notebook instead of
``pn.extension()``. See its docstring for what it does beyond Panel's own.
"""

from __future__ import annotations

import html
import json
import logging
import threading
import time
import uuid

import panel as pn
from panel.io.notebook import JupyterCommJSBinary
from pyviz_comms import JupyterComm

from raisus_panel import i18n, upstream

__all__ = ["extension", "fix_panel", "NO_ECHO_JS", "NO_ECHO_WIDGETS_JS", "ENTER_COMMITS_JS", "MainThreadComm",
           "OrderedComm"]

log = logging.getLogger(__name__)

# Every fix below reads privates of the Panel (or jupyter_bokeh, pyviz_comms, ipykernel, comm) in
# raisus_panel.upstream.TESTED, and applies only there; pyproject.toml's bounds allow only those
# (tests/jupyterlab/test_panel_fixes.py).

#: Panel's notebook comm sends every change of a page's Bokeh document back to the kernel -- also
#: the changes the page has just applied from the kernel's own messages (Panel 1.9's
#: ``CommManager._document_changed`` does not skip events whose ``sync`` is false, as BokehJS's own
#: ``ClientSession`` does). The kernel then applies its own earlier values again: streamed rows
#: twice (a chart's data in the kernel grows extra rows), stale labels and tooltips over newer
#: ones, and full copies of models it has already replaced (``failed to validate ...``,
#: ``reference ... isn't known``). This shim makes the page send only what happened in the page.
#: It patches the class once per page; upstream lacks the filter (tests/jupyterlab checks the
#: installed Panel still does, and fails when the shim is no longer needed).
NO_ECHO_JS = """
(function () {
  const CM = window.Bokeh && window.Bokeh.Models && window.Bokeh.Models.get
    ? window.Bokeh.Models.get("panel.models.comm_manager.CommManager") : undefined;
  if (CM === undefined || CM === null) return false;
  const proto = CM.prototype;
  if (!proto.__raisus_no_echo && typeof proto._document_changed === "function") {
    const forward = proto._document_changed;
    proto._document_changed = function (event) {
      if (event.sync === false) return;  // applied from the kernel: it knows already
      return forward.call(this, event);
    };
    proto.__raisus_no_echo = true;
  }
  return true;
})()
"""

#: The same echo, in ``pn.ipywidget``'s outputs: jupyter_bokeh's ``BokehView`` (4.x, its lab
#: extension) holds back the document events made while it applies a patch from the kernel and, once
#: applied, sends them all to the kernel (``_consume_patch`` then ``_change_event``), without looking at
#: ``sync``. The kernel then applies its own change again as if a person had made it -- and Panel reads a
#: ``RadioButtonGroup``'s ``labels`` coming back from the page as new options: a language switch turned
#: each character sheet's kind into None ("Unknown kind of character None"). This shim makes the view
#: send only what happened in the page. JupyterLab keeps each federated extension's module container in
#: ``window._JUPYTERLAB``; the view class is taken from there and patched once (every view, also those
#: already drawn, calls the prototype's method). Upstream lacks the filter (tests/jupyterlab checks the
#: installed jupyter_bokeh still does, and fails when the shim is no longer needed).
NO_ECHO_WIDGETS_JS = """
(function () {
  const lab = window._JUPYTERLAB && window._JUPYTERLAB["@bokeh/jupyter_bokeh"];
  if (!lab || lab.__raisus_no_echo) return true;  // no ipywidgets of Bokeh in this page, or patched
  lab.__raisus_no_echo = true;
  Promise.resolve(lab.get("./index")).then(function (factory) {
    const View = factory().BokehView;
    const proto = View && View.prototype;
    if (!proto || typeof proto._change_event !== "function") return;
    const forward = proto._change_event;
    proto._change_event = function (event) {
      if (event.sync === false) return;  // applied from the kernel: it knows already
      return forward.call(this, event);
    };
  }).catch(function () { lab.__raisus_no_echo = false; });
  return true;
})()
"""

#: JupyterLab 4's "input guard" (its application's keydown handler) cancels the ``beforeinput`` of
#: Enter (``insertLineBreak``) in any element inside a notebook cell, so that Enter pressed for a
#: shortcut adds no line break. In a one-line field that also cancels what Enter does there, commit the
#: field: Bokeh's number fields (which send on ``change``), a character sheet's ratings among them, sent
#: nothing until they lost focus; in a text area (a character's description) Enter made no new line.
#: This listener, once per page, does what Enter does -- commits a one-line field, or starts a new line
#: in a text area -- when, and only when, JupyterLab cancelled it: it does nothing where Enter goes
#: through (a served page, or a JupyterLab without the guard). tests/jupyterlab/test_notebook_views.py
#: checks that the guard still cancels, and that Enter sends and starts new lines.
ENTER_COMMITS_JS = """
(function () {
  if (window.__raisus_enter_commits) return;
  window.__raisus_enter_commits = true;
  let plainEnter = false;  // Enter with no modifier: Shift+Enter and the like are JupyterLab's keys
  window.addEventListener("keydown", function (event) {
    plainEnter = event.key === "Enter" && !(event.shiftKey || event.ctrlKey || event.altKey || event.metaKey);
  }, true);
  window.addEventListener("beforeinput", function (event) {
    if (event.inputType !== "insertLineBreak" || !event.defaultPrevented) return;  // JupyterLab let it be
    const field = event.composedPath()[0];  // the field itself, inside its widget's shadow root
    if (field instanceof HTMLInputElement) {
      field.dispatchEvent(new Event("change", {bubbles: true}));
    } else if (field instanceof HTMLTextAreaElement && plainEnter) {  // the new line it was pressed for
      field.setRangeText("\\n", field.selectionStart, field.selectionEnd, "end");
      field.dispatchEvent(new Event("input", {bubbles: true}));
    }
  });
})();
"""

#: Waits for BokehJS and Panel to load in the page (the load output runs asynchronously), then
#: installs :data:`NO_ECHO_JS` and :data:`NO_ECHO_WIDGETS_JS` and hides the "run the notebook" notice.
#: At once it installs :data:`ENTER_COMMITS_JS` (Enter in a field does what it does outside JupyterLab).
#: It also starts the script that draws greyed controls' reasons under them (``ui.kit.WHY_SCRIPT``): on
#: a served page a document callback starts it, which a notebook's outputs never run.
#: The notice is hidden only in an output the kernel has just made: a saved notebook opened again
#: draws its outputs without a kernel (BokehJS loads from the Jupyter server, the views look as they
#: were saved, and no click reaches anything), so there the notice stays and says to run the notebook.
_READY_JS = """
(function () {
  const notice = document.getElementById(%(id)s);
  const fresh = Math.abs(Date.now() - %(made)d) <= %(fresh_ms)d;  // not a saved output opened again
  let tries = 0;
  (function () { %(why)s })();  // greyed controls' reasons, drawn under them (ui/_base.py WHY_SCRIPT)
  %(enter)s  // Enter in a field does what it does outside JupyterLab (ENTER_COMMITS_JS)
  function ready() {
    if (%(widgets)s && %(shim)s) {
      if (notice && fresh) notice.style.display = "none";
      return;
    }
    if (++tries < 1200) setTimeout(ready, 50);  // a minute at most: then the notice stays
  }
  ready();
})();
"""


class _Waiting:
    """Stands in for an :class:`OrderedComm`'s Jupyter comm until the page opens it: keeps what is sent."""

    def __init__(self, owner: "OrderedComm"):
        self._owner = owner

    def __bool__(self) -> bool:
        return True  # Panel's push() defers a message while the comm is falsy: never defer

    def send(self, data=None, metadata=None, buffers=None) -> None:
        self._owner._queue.append((data, metadata, list(buffers or [])))

    def close(self) -> None:
        self._owner._queue.clear()

    def on_msg(self, callback) -> None:  # pragma: no cover - Panel only sends on a server comm
        pass


class OrderedComm(JupyterComm):
    """The kernel's end of one notebook output's comm, which delivers every message in order.

    The page opens an output's comm some time after it received the output -- in a Run All, only
    after later cells have run. Until then Panel 1.9's ``push`` (``panel/io/notebook.py``) defers
    each message on a timer of its own and sends a message made after the comm opened at once, so
    the page can get a change before an earlier one: BokehJS refuses a patch that names models
    made in a message it has not had yet (``reference ... isn't known``) and drops it, and the late
    message then puts older values back (a table left at round 1). Upstream lacks an order per comm.
    This comm is never falsy, so ``push`` always sends; what is sent before the page opened it is
    kept and sent, in order, as soon as it opens (:meth:`init`, which Panel calls then).
    """

    def __init__(self, *args, **kwargs):
        self._queue: list[tuple] = []
        self._opened = None
        super().__init__(*args, **kwargs)

    @property
    def _comm(self):
        return self._opened if self._opened is not None else _Waiting(self)

    @_comm.setter
    def _comm(self, comm) -> None:
        self._opened = comm

    def init(self) -> None:
        if self._opened is not None:
            return
        super().init()
        queued, self._queue = self._queue, []
        for data, metadata, buffers in queued:
            self._opened.send(data, metadata=metadata, buffers=buffers)


class MainThreadComm(JupyterCommJSBinary):
    """The kernel's end of the comm an output's page talks on: its messages are handled on the
    kernel's main thread, one after another, in the order they came.

    JupyterLab 4.4+ sends comm messages over kernel subshells by default (its "commsOverSubshells"
    setting, one subshell per comm target), and ipykernel 7 runs each subshell in a thread of its
    own. Every notebook output of Panel has a comm target of its own, so a click in one output, the
    page's messages of another output and a running cell were handled at the same time, in different
    threads, on models and documents that are not thread-safe: Panel's ``_on_msg`` ends by releasing
    its document's hold, which drops whatever another thread had just changed in that document and
    not yet sent -- the output then never gets that change (a character sheet, a table left a round
    behind), and which output goes stale differs from run to run. Panel (1.9) has no lock for this.
    Here the work of a message is passed to the main thread's event loop (where cells run), as when
    every comm message came on the main shell: nothing of Panel's runs in two threads at once.

    The page's first messages on a new comm can also arrive before the kernel opened it: the
    ``comm_open`` waits in the main shell's queue behind the cells of a Run All, while the messages
    go through an idle subshell at once, and ipykernel drops a message for a comm it does not know
    yet, without a word (the page then waits for an acknowledgement for ever and sends that output
    nothing more). Such early messages are kept (:func:`_keep_early_messages`) and handled, in
    order, when the comm opens.
    """

    _loop = None  #: the kernel's main-thread IOLoop, set by :func:`fix_panel`
    _lock = threading.Lock()  #: guards :attr:`_early` and the moment a comm gets its handler
    #: messages that came before their comm had a handler, by comm id (at most :data:`EARLY_LIMIT`)
    _early: dict[str, list] = {}

    @classmethod
    def _on_main_thread(cls, fn, *args) -> None:
        loop = cls._loop
        if loop is None or threading.current_thread() is threading.main_thread():
            fn(*args)
        else:
            loop.add_callback(fn, *args)

    def _handle_open(self, comm, msg):
        # take the comm now (no message is lost), run Panel's reaction on the main thread
        self._comm = comm
        if self._on_open:
            self._on_main_thread(self._on_open, msg)
        with self._lock:  # early messages first, then any that come meanwhile
            self._comm.on_msg(self._handle_msg)
            for message in self._early.pop(comm.comm_id, []):
                self._handle_msg(message)

    def _handle_msg(self, msg):
        self._on_main_thread(super()._handle_msg, msg)


#: How many messages, over all comms, are kept for comms not open yet (the oldest go first).
EARLY_LIMIT = 1000


def _keep_early_messages(kernel) -> None:
    """Make ``kernel`` keep a comm message whose comm is not open yet, for :class:`MainThreadComm`.

    ipykernel 7 looks a shell message's handler up in ``kernel.shell_handlers`` (the one of
    ``comm_msg`` drops a message for a comm it does not know), and ``comm``'s ``BaseComm.on_msg``
    keeps the handler in ``_msg_callback``: the handler is wrapped, and that private read, only on
    the ipykernel and comm of :data:`raisus_panel.upstream.TESTED` (upstream lacks a queue for them).
    """
    for package in ("ipykernel", "comm"):
        if not upstream.tested(package):
            upstream.warn_untested(package, "raisus_panel's keeping of early comm messages", log)
            return
    handlers = kernel.shell_handlers
    forward = handlers.get("comm_msg")
    if forward is None or getattr(forward, "raisus_keeps_early", False):
        return
    manager = kernel.comm_manager

    def comm_msg(stream, ident, msg):
        comm_id = msg.get("content", {}).get("comm_id")
        with MainThreadComm._lock:
            comm = manager.get_comm(comm_id)
            if comm is None or comm._msg_callback is None:
                early = MainThreadComm._early
                early.setdefault(comm_id, []).append(msg)
                while sum(len(v) for v in early.values()) > EARLY_LIMIT:
                    oldest = next(iter(early))
                    early[oldest].pop(0)
                    if not early[oldest]:
                        del early[oldest]
                return None
        return forward(stream, ident, msg)

    comm_msg.raisus_keeps_early = True
    handlers["comm_msg"] = comm_msg


def _main_thread_comms() -> bool:
    """Make Panel's notebook outputs handle their messages on the main thread (:class:`MainThreadComm`)."""
    from panel.io import notebook

    manager = notebook.JupyterCommManagerBinary
    if manager.client_comm is MainThreadComm:
        return True
    if not upstream.tested("panel") or manager.client_comm is not JupyterCommJSBinary:
        return False
    if not upstream.tested("pyviz_comms"):  # its Comm's _handle_open, _handle_msg, _comm, _on_open
        upstream.warn_untested("pyviz_comms", "raisus_panel's MainThreadComm", log)
        return False
    if threading.current_thread() is not threading.main_thread():
        return False
    try:
        from IPython import get_ipython
        kernel = get_ipython().kernel
        MainThreadComm._loop = kernel.io_loop
        _keep_early_messages(kernel)
    except Exception:  # not in a kernel: nothing to serialise
        return False
    manager.client_comm = MainThreadComm
    return True


def _order_comms() -> bool:
    """Make Panel's notebook outputs use :class:`OrderedComm` (once; False on an untested Panel)."""
    from panel.io import notebook

    manager = notebook.JupyterCommManagerBinary
    if manager.server_comm is OrderedComm:
        return True
    if not upstream.tested("panel") or manager.server_comm is not JupyterComm:
        return False
    if not upstream.tested("pyviz_comms"):  # its JupyterComm's _comm and init
        upstream.warn_untested("pyviz_comms", "raisus_panel's OrderedComm", log)
        return False
    manager.server_comm = OrderedComm
    return True


def _stylesheets_per_document() -> bool:
    """Make Panel look style sheets up per document in notebooks (once; False on an untested Panel).

    Panel 1.9 turns a style sheet's URL into a Bokeh model through a cache of the *current*
    document (``Syncable._process_param_change``, ``panel/reactive.py``), also when it makes or
    changes the models of other documents. A click in one notebook output sets that output as
    the current document; a view shown in several outputs then gives the other outputs that
    output's style sheet models, and Bokeh refuses ("Models must be owned by only a single
    document"): the click fails, and that output breaks for good. Upstream lacks a cache keyed by
    the document being updated. In a notebook's document (no server session) the lookup here runs
    with no current document, so each model gets style sheets of its own, which Panel then shares
    only within that model's document (``Reactive._get_properties``). Served pages are unchanged.
    """
    from panel.io.state import state
    from panel.reactive import Syncable

    original = Syncable.__dict__["_process_param_change"]
    if getattr(original, "raisus_original", None) is not None:
        return True
    if not upstream.tested("panel") or not hasattr(state, "_curdoc"):
        return False

    def _process_param_change(self, params):
        doc = state._curdoc.get()
        if "stylesheets" not in params or doc is None or getattr(doc, "session_context", None) is not None:
            return original(self, params)
        token = state._curdoc.set(None)
        try:
            return original(self, params)
        finally:
            state._curdoc.reset(token)

    _process_param_change.raisus_original = original
    Syncable._process_param_change = _process_param_change
    return True


def _inline_stylesheets() -> bool:
    """Make every style sheet of a notebook output load without the network when ``pn.config.inline``
    is on (once; False on an untested Panel).

    Panel inlines the style sheets of an output's first rendering (``Viewable._repr_mimebundle_``),
    but models made later -- a widget added by a click, a form row, every model of
    ``pn.ipywidget`` -- link Panel's CSS on its CDN (``loading.css`` above all): offline the browser
    fails to load it, on every such model. Panel passes each linked sheet through
    ``patch_stylesheet(sheet, dist_url)`` (``panel/reactive.py``; a design's parameters go through
    ``Design._apply_params`` in ``panel/theme/base.py``, which imports it from ``panel.io.resources``
    when called: both names are patched); outside a served page the ``dist_url`` is the CDN itself,
    and Panel's own patch turns a link to its local dist folder (``loading.css`` of a model made
    after the first rendering: 13's table switched to English) into a CDN link. After it, with
    ``pn.config.inline``, a CDN link is turned into a ``data:`` URL of the same file from Panel's
    own ``dist`` folder. Served pages are unchanged.
    """
    import base64

    import panel.io.resources as pn_resources
    import panel.reactive as pn_reactive
    from panel.io.resources import CDN_DIST, DIST_DIR

    original = getattr(pn_reactive, "patch_stylesheet", None)
    if original is None or not upstream.tested("panel"):
        return False
    if getattr(original, "raisus_original", None) is not None:
        return True
    if getattr(pn_resources, "patch_stylesheet", None) is not original:
        return False  # Panel keeps two functions of that name now: check both callers
    inlined: dict[str, str] = {}

    def data_url(url: str) -> str | None:
        if url not in inlined:
            path = DIST_DIR / url[len(CDN_DIST):].split("?")[0]
            if not path.is_file():
                return None
            inlined[url] = "data:text/css;base64," + base64.b64encode(path.read_bytes()).decode("ascii")
        return inlined[url]

    def patch_stylesheet(stylesheet, dist_url):
        # Panel's first: it also turns a link to its local dist folder (``static/extensions/panel/``,
        # what ``get_dist_path()`` gives outside a notebook's rendering) into one on ``dist_url``
        result = original(stylesheet, dist_url)
        url = getattr(stylesheet, "url", None)
        if pn.config.inline and dist_url == CDN_DIST and isinstance(url, str) and url.startswith(CDN_DIST):
            inline = data_url(url)
            if inline is not None:
                stylesheet.url = inline
        return result

    patch_stylesheet.raisus_original = original
    pn_reactive.patch_stylesheet = patch_stylesheet
    pn_resources.patch_stylesheet = patch_stylesheet
    return True


#: Stands for the Jupyter server's base URL in the loader's file URLs until the page knows it.
_BASE_MARK = "RAISUS-JUPYTER-BASE/"

#: The Jupyter server's base URL, read in the page (JupyterLab and Notebook 7 write it into the page).
_BASE_JS = """var __raisus_base = (function () {
  try {
    const config = document.getElementById("jupyter-config-data");
    const base = config ? JSON.parse(config.textContent).baseUrl : "/";
    return base ? (base.endsWith("/") ? base : base + "/") : "/";
  } catch (e) { return "/"; }
})();
"""


def _served_by_jupyter() -> bool:
    """Whether this kernel was started by a Jupyter server (JupyterLab, Notebook 7), which serves
    BokehJS and Panel's files through Panel's own server extension (``panel-preview/static/``,
    ``panel_dist/``, installed and enabled with Panel). VS Code, nbclient and other front ends start
    kernels without one."""
    import os

    return bool(os.environ.get("JPY_SESSION_NAME"))


def _jupyter_server_loader(reloading: bool = False) -> str | None:
    """Panel's notebook loader (``load_notebook``'s JavaScript) with every file taken from the
    Jupyter server's Panel extension instead of inlined: a few kilobytes in the first output instead
    of six megabytes of BokehJS and Panel, and still no request outside the Jupyter server.

    Panel 1.9 can render its loader for "server" resources, but then names the files relative to a
    Bokeh server's root (``static/js/bokeh.min.js``, ``static/extensions/panel/panel.min.js``);
    Panel's extension serves Bokeh's files under ``panel-preview/static/`` and its own under
    ``panel_dist/``, below the Jupyter server's base URL, which only the page knows. Upstream lacks
    a loader for it (its ``/panel-preview/`` notebook mode is for the preview app). None when the
    installed Panel names its files otherwise (then the caller inlines, as before).
    """
    import sys

    from bokeh.resources import Resources as BkResources
    from panel.io import notebook as pn_notebook
    from panel.io.resources import Resources, bundle_resources, set_resource_mode

    with set_resource_mode("server"):
        resources = Resources.from_bokeh(BkResources(mode="server", root_url=_BASE_MARK), absolute=True,
                                         notebook=True)
        bundle = bundle_resources(None, resources, notebook=True, reloading=reloading)
        configs, requirements, exports, skip_imports = pn_notebook.require_components()
        js = pn_notebook._autoload_js(bundle=bundle, configs=configs, requirements=requirements, exports=exports,
                                      skip_imports=skip_imports, ipywidget="ipywidgets_bokeh" in sys.modules,
                                      reloading=reloading)
    urls = [str(u) for u in bundle.js_files] + [str(u) for u in bundle.css_files]
    if bundle.js_modules or not urls or not all(u.startswith(_BASE_MARK + "static/") for u in urls):
        return None
    js = (js.replace(f'"{_BASE_MARK}static/extensions/panel/', '__raisus_base + "panel_dist/')
            .replace(f'"{_BASE_MARK}static/', '__raisus_base + "panel-preview/static/'))
    if _BASE_MARK in js:
        return None
    return _BASE_JS + js


def _load_notebook_from_jupyter(inline: bool = True, reloading: bool = False, **kwargs) -> None:
    """``panel.io.notebook.load_notebook`` with :func:`_jupyter_server_loader`'s JavaScript (falls
    back to Panel's own when that gives None)."""
    from IPython.display import publish_display_data
    from panel.io import notebook as pn_notebook

    js = _jupyter_server_loader(reloading)
    if js is None:
        log.warning("raisus_panel: Panel %s names its files in a way not known here: BokehJS is inlined",
                    pn.__version__)
        return _PANEL_LOAD_NOTEBOOK(inline, reloading=reloading, **kwargs)
    css = (pn_notebook.PANEL_DIR / "_templates" / "jupyter.css").read_text(encoding="utf-8")
    publish_display_data(data={"text/html": f'<script type="esms-options">{{"shimMode": true}}</script>'
                                            f"<style>{css}</style>"})
    publish_display_data({"application/javascript": js, pn_notebook.LOAD_MIME: js})
    import bokeh.io.notebook
    bokeh.io.notebook.curstate().output_notebook()
    manager = "\n".join([pn_notebook.PYVIZ_PROXY, pn_notebook._JupyterCommManager.js_manager,
                          pn_notebook.nb_mime_js])
    publish_display_data(data={pn_notebook.LOAD_MIME: manager, "application/javascript": manager})


_PANEL_LOAD_NOTEBOOK = None  #: Panel's own ``load_notebook``, kept while :func:`extension` runs


#: The untested versions already warned about, by package: a warning is said once per process.
_warned: dict[str, str] = {}


def fix_panel() -> bool:
    """Apply raisus_panel's fixes of Panel's notebook plumbing (:class:`OrderedComm`, style sheets
    per document, offline style sheets, and in a kernel :class:`MainThreadComm`); :func:`extension` calls it. True if
    Panel is a version they were tested with."""
    if not upstream.tested("panel"):
        # each fix reads a private of the Panel it was written for: on another one, none is applied
        # (said once: every notebook's first cell calls this, and so may every re-run of it)
        if _warned.get("panel") == pn.__version__:
            return False
        _warned["panel"] = pn.__version__
        log.warning("raisus_panel's notebook fixes were written for Panel %s, not %s: none is applied "
                    "(install the Panel that pyproject.toml names)", upstream.TESTED["panel"] + "x",
                    pn.__version__)
        return False
    fixed = [_order_comms(), _stylesheets_per_document(), _inline_stylesheets()]
    _main_thread_comms()
    return all(fixed)


def _no_echo_shim() -> str:
    """:data:`NO_ECHO_JS` for the Panel it was written for; nothing (``true``: ready) for another one."""
    if not upstream.tested("panel"):
        upstream.warn_untested("panel", "raisus_panel's NO_ECHO_JS", log)
        return "true"
    return NO_ECHO_JS.strip()


def _widgets_shim() -> str:
    """:data:`NO_ECHO_WIDGETS_JS` for the jupyter_bokeh it was written for; nothing for another one."""
    if upstream.version("jupyter_bokeh") is None:  # no pn.ipywidget without it: nothing to fix
        return "true"
    if not upstream.tested("jupyter_bokeh"):
        upstream.warn_untested("jupyter_bokeh", "raisus_panel's fix of pn.ipywidget", log)
        return "true"
    return NO_ECHO_WIDGETS_JS.strip()


#: How old the first output may be when the page draws it and still count as just made by the kernel
#: (a page draws an output the moment it arrives; the kernel's clock and the browser's may differ a little).
FRESH_SECONDS = 120


def _notice_html() -> str:
    """The notice shown until BokehJS and Panel are loaded, and the script that hides it."""
    element = f"raisus-notice-{uuid.uuid4().hex}"
    texts = "<br>".join(html.escape(i18n.t("notebook.run_first", lang)) for lang in i18n.LANGUAGES)
    from raisus_panel.ui.kit import WHY_SCRIPT  # the ui imports panel's notebook glue: imported late
    script = _READY_JS % {"id": json.dumps(element), "shim": _no_echo_shim(), "why": WHY_SCRIPT.strip(),
                          "enter": ENTER_COMMITS_JS.strip(),
                          "widgets": _widgets_shim(), "made": int(time.time() * 1000),
                          "fresh_ms": FRESH_SECONDS * 1000}
    return (f'<div id="{element}" class="raisus-notice" style="padding: 0.5em 0.8em; border-left: 4px solid '
            f'#d9a400; background: #fff8e1; color: #4a3800; font-family: sans-serif;">{texts}</div>'
            f"<script>{script}</script>")


def extension(*args, **kwargs) -> None:
    """Load Panel for raisus_panel in a notebook: ``raisus_panel.extension()`` in the first cell.

    Beyond ``pn.extension(*args, **kwargs)``:

    * **Offline, and small when saved.** In JupyterLab (or Notebook 7) BokehJS and Panel's
      JavaScript load from the Jupyter server itself, through Panel's own server extension, and
      the style sheets are inlined: no request leaves the Jupyter server, and a notebook saved after
      Run All keeps a loader of a few kilobytes instead of six megabytes of JavaScript. In a front end
      that starts its kernel without a Jupyter server (VS Code, nbclient) everything is inlined into
      the notebook (``inline=True``), as with an explicit ``inline=True``; ``inline=False`` loads
      from the CDN.
    * **Outputs that stay in step with the kernel.** What the outputs' pages send is handled on
      the kernel's main thread, one message at a time, although JupyterLab sends it over subshells
      (see :class:`MainThreadComm`); the kernel sends each output its changes in the order they
      happened, also those made before the page opened the output's comm (see
      :class:`OrderedComm`); and the page sends the kernel only the changes made in the page, not
      the ones it received from the kernel (see :data:`NO_ECHO_JS`). Without these, a view could
      freeze or go back to older values after a few commands, and the kernel's copy of a chart
      got extra rows and buttons old labels. A click in any output works however many outputs
      show the same view (style sheets are made per output, see :func:`fix_panel`).
    * **A notice instead of dead views.** A saved notebook opened again has no kernel behind its
      outputs: untrusted it shows no views, trusted it draws them as saved, and no click reaches
      anything. Its first output then says, in Korean and English, to run the notebook (Run All);
      when the kernel has just made that output, a small script hides it once BokehJS and Panel are
      loaded.

    Outside IPython (``panel serve``), this is ``pn.extension(*args, **kwargs)`` with inline
    resources.

    Parameters
    ----------
    *args, **kwargs
        Passed on to ``pn.extension`` (extensions to load, ``design=``, ``inline=False`` to load
        from the CDN again, ...).

    Examples
    --------
    >>> import raisus_panel
    >>> raisus_panel.extension()  # doctest: +SKIP
    """
    global _PANEL_LOAD_NOTEBOOK
    from_jupyter = "inline" not in kwargs and _served_by_jupyter() and upstream.tested("panel")
    kwargs.setdefault("inline", True)  # the style sheets of every model: see _inline_stylesheets
    fix_panel()  # first: pn.extension opens a comm of its own
    if from_jupyter:
        from panel.io import notebook as pn_notebook

        # pn.extension imports load_notebook from panel.io.notebook when it is called
        _PANEL_LOAD_NOTEBOOK = pn_notebook.load_notebook
        pn_notebook.load_notebook = _load_notebook_from_jupyter
        try:
            pn.extension(*args, **kwargs)
        finally:
            pn_notebook.load_notebook = _PANEL_LOAD_NOTEBOOK
    else:
        pn.extension(*args, **kwargs)
    try:
        from IPython import get_ipython
        from IPython.display import HTML, display
    except ImportError:  # pragma: no cover - IPython comes with every notebook
        return
    shell = get_ipython()
    if shell is None or getattr(shell, "kernel", None) is None:
        return
    display(HTML(_notice_html()))
