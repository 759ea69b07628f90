"""The adapter protocol (``spec/protocol.md``)."""
