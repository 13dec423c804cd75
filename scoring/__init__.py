"""Pure-Python scoring: one module per game (or family); no Django import anywhere here."""
