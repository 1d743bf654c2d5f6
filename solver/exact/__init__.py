"""Exact analysis: the Bonus wager, the dealer, optimal play, the game, charts, design."""
