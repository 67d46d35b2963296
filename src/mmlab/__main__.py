"""``python -m mmlab ...``: the same command line as ``mmlab ...``, for a checkout that is not
installed or an interpreter whose scripts are not on the path."""

from mmlab.cli.entry import run

run()
