"""Evaluation: readers of public benchmark formats, their official metrics, the
`pandora eval` runner and its report (see docs/evaluation.md)."""
