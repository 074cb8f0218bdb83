"""The raisus_panel dashboard: ``panel serve apps/dashboard.py`` (the store is ``RAISUS_STORE`` or ``RAISUS_DB``)."""

import panel as pn

from raisus_panel.dashboard import create_app
from raisus_panel.dashboard.app import CSS

# no Bokeh reconnect: a page whose server went away reloads itself (raisus_panel/dashboard/reconnect.py)
pn.extension(reconnect=False, raw_css=[CSS], notifications=False)
create_app().servable(title="raisus_panel")
