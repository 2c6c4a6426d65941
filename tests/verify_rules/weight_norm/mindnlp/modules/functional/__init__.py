"""A stand-in for mindnlp, for GM205's verifier case (see modules/functional/weight_norm.py)."""
