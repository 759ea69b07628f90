"""The command earlier versions documented for the reference adapter, kept working.

``python -m rules_ref.conformance.adapter`` runs the reference adapter, as
``rules-ref adapter`` does (:mod:`rules_ref.protocol.reference_adapter`). The
conformance kit itself is the packages :mod:`rules_ref.protocol`,
:mod:`rules_ref.conform`, :mod:`rules_ref.findings`, :mod:`rules_ref.exercise`,
:mod:`rules_ref.reports`, :mod:`rules_ref.strategies` and :mod:`rules_ref.vectors`.
"""

#: Nothing to import: the package holds the launcher alone.
__all__: list[str] = []
