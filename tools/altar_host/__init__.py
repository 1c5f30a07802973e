"""Host side of Altar: the `altar` command and its tools."""
