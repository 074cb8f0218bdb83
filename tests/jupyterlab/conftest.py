"""JupyterLab in a real browser: a ``jupyter lab`` server and Debian's Chromium driven by Playwright.

The server runs on a free loopback port with no token, its root a scratch copy of the notebooks a
test module names, and with its own Jupyter config, data and runtime directories (nothing of the
user's Jupyter set-up is read or written). It is started once per test module and its whole
process group (server and kernels) is killed at the end.

:class:`Lab` drives one notebook: open it, Run All, wait until every cell ran and the kernel is
idle, click in an output, collect error outputs and the page's console errors, and run code in the
notebook's own kernel to read the models back (:meth:`Lab.kernel_json`), so a test can compare what
the page shows with what the kernel holds.

The browser cannot reach the internet (``CHROMIUM_ARGS`` resolve no host but the loopback
addresses): everything a notebook shows must come from the kernel and the server. Browser test
conventions (``RAISUS_REQUIRE_BROWSER``, screenshots in ``test-artifacts/``) are those of
``tests/browser``.
"""

from __future__ import annotations

import ast
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
import urllib.request
import uuid
from pathlib import Path

import pytest

from tests.browser.conftest import ARTIFACTS, CHROMIUM, CHROMIUM_ARGS, ROOT, free_port, shot

HERE = Path(__file__).resolve().parent

#: Kernels, cells and JupyterLab itself are slow on a 2-core machine that also runs the browser.
TIMEOUT_MS = 120_000

#: A notebook saved after Run All stays well under a megabyte: its views' own outputs, not BokehJS and
#: Panel (6 MB per notebook, inlined before issue 22).
MAX_SAVED_BYTES = 1_000_000


def pytest_collection_modifyitems(config, items):
    for item in items:
        if "tests/jupyterlab/" in str(item.fspath).replace(os.sep, "/") and "lab" in item.fixturenames:
            item.add_marker(pytest.mark.notebook)
            item.add_marker(pytest.mark.browser)


class LabServer:
    """A ``jupyter lab`` subprocess serving ``root`` on a free loopback port, without a token."""

    def __init__(self, root: Path, home: Path):
        self.root = root
        self.home = home
        self.port = free_port()
        self.proc: subprocess.Popen | None = None
        self.log = ARTIFACTS / f"jupyterlab-{self.port}.log"

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, timeout: float = 90) -> "LabServer":
        ARTIFACTS.mkdir(exist_ok=True)
        dirs = {name: self.home / name for name in ("config", "data", "runtime", "ipython")}
        for path in dirs.values():
            path.mkdir(parents=True, exist_ok=True)
        env = {**os.environ,
               "JUPYTER_CONFIG_DIR": str(dirs["config"]), "JUPYTER_DATA_DIR": str(dirs["data"]),
               "JUPYTER_RUNTIME_DIR": str(dirs["runtime"]), "IPYTHONDIR": str(dirs["ipython"]),
               "JUPYTER_PLATFORM_DIRS": "1", "JUPYTER_NO_CONFIG": "",
               # the kernel imports raisus_panel from this working tree, installed or not
               "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
               "BROWSER": "true"}
        # no announcements or update checks: there is no internet, and the pop-up would cover cells
        (dirs["config"] / "labconfig").mkdir(exist_ok=True)
        (dirs["config"] / "labconfig" / "page_config.json").write_text(json.dumps({"disabledExtensions": {
            "@jupyterlab/apputils-extension:announcements": True}}))
        cmd = [sys.executable, "-m", "jupyterlab", "--no-browser", "--allow-root",
               "--ServerApp.ip=127.0.0.1", f"--ServerApp.port={self.port}", "--ServerApp.port_retries=0",
               "--IdentityProvider.token=", "--ServerApp.password=", "--ServerApp.disable_check_xsrf=True",
               f"--ServerApp.root_dir={self.root}", "--LabApp.expose_app_in_browser=True",
               "--LabApp.news_url=", "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
               "--ServerApp.open_browser=False"]
        self._logfile = open(self.log, "ab")
        self.proc = subprocess.Popen(cmd, cwd=self.root, env=env, stdout=self._logfile,
                                     stderr=subprocess.STDOUT, start_new_session=True)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"jupyter lab exited early; see {self.log}")
            try:
                urllib.request.urlopen(self.url + "/api/status", timeout=2)
                return self
            except Exception:
                time.sleep(0.3)
        self.stop()
        raise RuntimeError(f"jupyter lab did not come up in {timeout}s; see {self.log}")

    def stop(self) -> None:
        """Kill the server's whole process group (the kernels too)."""
        if self.proc and self.proc.poll() is None:
            try:
                os.killpg(self.proc.pid, signal.SIGTERM)
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(10)
            except ProcessLookupError:
                pass
        if getattr(self, "_logfile", None):
            self._logfile.close()


def _require_chromium() -> None:
    if not Path(CHROMIUM).exists():
        if os.environ.get("RAISUS_REQUIRE_BROWSER") == "1":
            pytest.fail(f"Chromium is required (RAISUS_REQUIRE_BROWSER=1) but {CHROMIUM} does not exist")
        pytest.skip(f"no Chromium at {CHROMIUM}: apt-get install chromium")


@pytest.fixture(scope="module")
def lab_server(request, tmp_path_factory):
    """A JupyterLab server whose root holds copies of the notebooks named by the module's
    ``NOTEBOOKS`` (paths relative to the project root, or names of files next to this conftest)."""
    _require_chromium()
    pytest.importorskip("jupyterlab", reason="JupyterLab is not installed: pip install -e '.[notebook]'")
    root = tmp_path_factory.mktemp("lab-root")
    for name in getattr(request.module, "NOTEBOOKS", []):
        path = (HERE / name) if (HERE / name).exists() else (ROOT / name)
        shutil.copy(path, root / path.name)
    server = LabServer(root, tmp_path_factory.mktemp("lab-home")).start()
    yield server
    server.stop()


# module scope: sync Playwright runs an event loop in this thread while it is open
@pytest.fixture(scope="module")
def lab_browser(lab_server):
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def lab(lab_server, lab_browser, request):
    """Open notebooks of ``lab_server`` in a fresh browser context: ``lab(name) -> Lab``.

    At the end every opened notebook's kernel is shut down, and a screenshot of each is saved.
    """
    opened: list[Lab] = []
    context = lab_browser.new_context(viewport={"width": 1400, "height": 1000})

    def _open(name: str) -> Lab:
        page = context.new_page()
        page.set_default_timeout(TIMEOUT_MS)
        notebook = Lab(page, lab_server, name)
        opened.append(notebook)
        notebook.open()
        return notebook

    yield _open
    for i, notebook in enumerate(opened):
        try:
            shot(notebook.page, f"jupyterlab-{request.node.name}-{i}")
        except Exception:
            pass
        notebook.shutdown()
    context.close()


# -- one notebook in the page ---------------------------------------------------------------------
_APP = "window.jupyterapp"

_PANEL_JS = f"""() => {{
  const w = {_APP}.shell.currentWidget;
  return w && w.sessionContext ? w : null;
}}"""

_KERNEL_IDLE_JS = f"""() => {{
  const w = ({_PANEL_JS})();
  if (!w || !w.sessionContext.session || !w.sessionContext.session.kernel) return false;
  return w.sessionContext.session.kernel.status === 'idle' && w.sessionContext.session.kernel.connectionStatus === 'connected';
}}"""

_EXECUTE_JS = f"""async ([code, expressions]) => {{
  const w = ({_PANEL_JS})();
  const kernel = w.sessionContext.session.kernel;
  const future = kernel.requestExecute({{code, store_history: false, silent: false, allow_stdin: false,
                                         user_expressions: expressions}});
  let out = '', err = null;
  future.onIOPub = (msg) => {{
    const t = msg.header.msg_type;
    if (t === 'stream' && msg.content.name === 'stdout') out += msg.content.text;
    if (t === 'error') err = msg.content.ename + ': ' + msg.content.evalue + '\\n' + msg.content.traceback.join('\\n');
  }};
  const reply = await future.done;
  return {{out, err, values: reply.content.user_expressions || {{}}}};
}}"""

#: No output's Panel comm has unsent changes or waits for the kernel's acknowledgement.
_COMMS_IDLE_JS = """() => {
  if (window.Bokeh === undefined) return true;
  for (const doc of Bokeh.documents)
    for (const m of doc.all_models)
      if (m._event_buffer !== undefined && (m._event_buffer.length > 0 || (m._blocked && Date.now() <= m._timeout)))
        return false;
  return true;
}"""

#: What :data:`_COMMS_IDLE_JS` waits for: per busy model, its type, buffered events and whether blocked.
_COMMS_BUSY_JS = """() => [...Bokeh.documents].flatMap(doc => [...doc.all_models]
  .filter(m => m._event_buffer !== undefined && (m._event_buffer.length > 0 || m._blocked))
  .map(m => `${m.type} ${m.id}: ${m._event_buffer.length} unsent, ${m._blocked ? 'waiting for an ack' : 'not blocked'}`))"""

#: Every cell's execution count ("" if never run) and whether it is still queued or running.
_CELLS_JS = """() => [...document.querySelectorAll('.jp-NotebookPanel:not(.lm-mod-hidden) .jp-Notebook .jp-Cell')]
  .filter(c => c.classList.contains('jp-CodeCell'))
  .map(c => { const p = c.querySelector('.jp-InputArea-prompt'); return p ? p.textContent.trim() : ''; })"""

#: Error outputs: tracebacks, and anything written to stderr (Panel prints callback errors there).
_ERRORS_JS = """() => [...document.querySelectorAll('.jp-NotebookPanel:not(.lm-mod-hidden) .jp-OutputArea-output')]
  .filter(o => o.getAttribute('data-mime-type') === 'application/vnd.jupyter.stderr')
  .map(o => o.textContent.slice(0, 2000))"""


class Lab:
    """One notebook open in JupyterLab: run it, click in it, read its kernel back."""

    def __init__(self, page, server: LabServer, name: str):
        self.page = page
        self.server = server
        self.name = name
        self.console: list[str] = []
        self.page_errors: list[str] = []
        page.on("console", self._on_console)
        page.on("pageerror", lambda exc: self.page_errors.append(str(exc)))
        # which address a "Failed to load resource" was: the console line does not say
        page.on("requestfailed", lambda request: self.console.append(
            f"error: request failed: {request.url[:200]} ({request.failure})"))

    def _on_console(self, msg) -> None:
        if msg.type in ("error", "warning"):
            self.console.append(f"{msg.type}: {msg.text}")

    # -- lifecycle ---------------------------------------------------------------------------------
    def open(self) -> "Lab":
        # a workspace of its own: JupyterLab would otherwise reopen the notebooks of earlier tests
        self.page.goto(f"{self.server.url}/lab/workspaces/{uuid.uuid4().hex}/tree/{self.name}")
        self.page.wait_for_function(f"() => !!{_APP} && !!({_PANEL_JS})()", timeout=TIMEOUT_MS)
        self.wait_idle()
        return self

    def wait_idle(self, timeout: float = TIMEOUT_MS) -> None:
        """Wait until the kernel is connected and idle."""
        self.page.wait_for_function(_KERNEL_IDLE_JS, timeout=timeout)

    def command(self, name: str, args: dict | None = None) -> None:
        """Run a JupyterLab command (e.g. ``notebook:run-all-cells``) on the open notebook."""
        self.page.evaluate(f"([n, a]) => {_APP}.commands.execute(n, a)", [name, args or {}])

    def run_all(self, timeout: float = 4 * TIMEOUT_MS) -> None:
        """Run All, then wait until every code cell ran and the kernel is idle again."""
        self.command("notebook:run-all-cells")
        self.wait_all_ran(timeout)

    def wait_all_ran(self, timeout: float = 4 * TIMEOUT_MS) -> None:
        self.page.wait_for_function(
            f"() => {{ const p = ({_CELLS_JS})(); return p.length > 0 && p.every(s => /^\\[\\d+\\]:$/.test(s)); }}",
            timeout=timeout)
        self.wait_idle(timeout)
        self.settle()

    def save(self) -> int:
        """Save the notebook as a learner does (Ctrl+S); the size of the file on disk, in bytes."""
        path = self.server.root / self.name
        before = path.stat().st_mtime_ns
        self.command("docmanager:save")
        self.page.wait_for_function(f"() => !{_APP}.shell.currentWidget.context.model.dirty", timeout=60_000)
        for _ in range(600):
            if path.stat().st_mtime_ns != before:
                break
            time.sleep(0.1)
        return path.stat().st_size

    def settle(self) -> None:
        """Wait until the page and the kernel have handled everything sent so far, both ways.

        Panel's comm in the page holds back what it sends until the kernel acknowledged the last
        message; when no output's comm has anything unsent or unacknowledged, a round trip through
        the kernel (an execute request is handled after every comm message sent before it, and its
        reply comes after every message the kernel sent meanwhile) leaves nothing in flight.

        An acknowledgement is flow control, not delivery: Panel's page sends on anyway once its
        ``timeout`` (5 s) has passed without one, so a comm still waiting after that, with nothing
        unsent, is idle too. (After many notebooks in one JupyterLab, an acknowledgement now and
        then never arrives; whether the message itself was handled is what the tests compare
        afterwards, page against kernel.)
        """
        for _ in range(2):
            try:
                self.page.wait_for_function(_COMMS_IDLE_JS, timeout=TIMEOUT_MS)
            except Exception as exc:
                raise AssertionError(f"{self.name}: outputs still wait for the kernel: "
                                     f"{self.page.evaluate(_COMMS_BUSY_JS)}") from exc
            self.execute("pass")
            self.wait_idle()

    def shutdown(self) -> None:
        try:
            self.page.evaluate(f"() => ({_PANEL_JS})().sessionContext.shutdown()")
        except Exception:
            pass
        self.page.close()

    # -- the kernel --------------------------------------------------------------------------------
    def execute(self, code: str) -> str:
        """Run ``code`` in the notebook's kernel (no cell, no history) and return what it printed.

        Raises AssertionError with the traceback if the code raised.
        """
        result = self.page.evaluate(_EXECUTE_JS, [code, {}])
        assert result["err"] is None, result["err"]
        return result["out"]

    def kernel_json(self, expr: str):
        """The JSON value of the Python expression ``expr``, evaluated in the notebook's kernel.

        Returned as a user expression of the execute request, not printed: what the kernel prints
        while Panel handles a comm message may go elsewhere.
        """
        result = self.page.evaluate(_EXECUTE_JS, ["import json as _raisus_json",
                                                  {"v": f"_raisus_json.dumps({expr}, default=str)"}])
        assert result["err"] is None, result["err"]
        value = result["values"]["v"]
        assert value["status"] == "ok", f"{value.get('ename')}: {value.get('evalue')}"
        return json.loads(ast.literal_eval(value["data"]["text/plain"]))

    # -- the page ----------------------------------------------------------------------------------
    def errors(self) -> list[str]:
        """The error outputs shown in the notebook (tracebacks, stderr)."""
        return self.page.evaluate(_ERRORS_JS)

    def bokeh_errors(self) -> list[str]:
        """Console errors (and BokehJS's, Panel's and its comm's warnings), and uncaught page errors.

        JupyterLab's own warnings (a plugin slow to start on a busy machine, ``@bokeh/jupyter_bokeh``'s
        too) are left out.
        """
        ours = re.compile(r"bokeh|panel|python failed|comm|reference|document", re.I)
        slow_plugin = re.compile(r"^warning: Plugin @\S+ .*took [\d.]+ms to activate")
        return [m for m in self.console if m.startswith("error:") or ours.search(m)
                and "Plugin @jupyterlab" not in m and not slow_plugin.search(m)] + self.page_errors

    def cell(self, index: int):
        """The ``index``-th cell (0-based, markdown cells included) of the open notebook."""
        return self.page.locator(".jp-NotebookPanel:not(.lm-mod-hidden) .jp-Notebook .jp-Cell").nth(index)

    def output(self, index: int):
        """The output area of cell ``index``."""
        return self.cell(index).locator(".jp-OutputArea")
