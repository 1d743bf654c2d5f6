"""The game itself: cards, rules, hands, outcomes and the errors bad input raises."""
