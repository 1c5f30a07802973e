"""Simulation: the card table the bots play at, the drivers that play whole
games through the engine, the bots, `altar simulate` and `balance`, their
reports, and the random logs the tests use."""
