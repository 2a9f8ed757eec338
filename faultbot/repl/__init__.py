"""The chat REPL: an on-call engineer pastes logs, answers questions, asks, and exports a report."""
