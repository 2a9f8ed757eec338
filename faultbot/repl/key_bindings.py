"""Keys: Enter sends the whole input, pasted lines included (a bracketed paste lands in the buffer
for review); Alt-Enter or Esc-Enter starts a new line; Enter on a highlighted completion takes it."""

from __future__ import annotations

from prompt_toolkit.filters import is_searching
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent


def chat_key_bindings() -> KeyBindings:
    bindings = KeyBindings()

    # While Ctrl-R searches, Enter is the search's: it takes the match.
    @bindings.add("enter", filter=~is_searching)
    def _send(event: KeyPressEvent) -> None:
        buffer = event.current_buffer
        state = buffer.complete_state
        if state is not None and state.current_completion is not None:
            buffer.apply_completion(state.current_completion)
        else:
            buffer.validate_and_handle()

    @bindings.add("escape", "enter", filter=~is_searching)
    def _new_line(event: KeyPressEvent) -> None:
        event.current_buffer.insert_text("\n")

    return bindings
