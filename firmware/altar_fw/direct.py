"""A screen Altar writes itself, outside displayio's refresh: glass.Glass
(the Pico Display's ST7789) and pages.Pages (the MacroPad's SH1106).

displayio keeps the canvas as the display's root group and is never
refreshed (its own refreshes, of the console if the program stops, address
the panel as before); `draw(canvas)` sends what the canvas changed since
the last draw."""


class Direct:
    """The display (a busdisplay.BusDisplay) and its bus (`send`)."""

    def __init__(self, display, bus):
        self.display = display
        self.bus = bus

    @property
    def width(self):
        return self.display.width

    @property
    def height(self):
        return self.display.height

    @property
    def root_group(self):
        return self.display.root_group

    @root_group.setter
    def root_group(self, group):
        self.display.root_group = group

    @property
    def auto_refresh(self):
        return self.display.auto_refresh

    @auto_refresh.setter
    def auto_refresh(self, on):
        self.display.auto_refresh = on
