"""The device on this computer: the emulator (its fake board, the panels' decoders,
the terminal, the window) and the real firmware booted in rp2040js."""
