"""Loaded by Python at start-up from PYTHONPATH: time.sleep is logged (TORCH_STUB_LOG), not slept."""
import os
import time


def _sleep(seconds):
    with open(os.environ["TORCH_STUB_LOG"], "a") as f:
        f.write("sleep %s\n" % seconds)


time.sleep = _sleep
