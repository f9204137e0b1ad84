"""The seed folders both seed scripts write: one folder per fuzz target under fuzz/seeds/, emptied first."""

import os
import shutil

SEEDS = "fuzz/seeds"


def reset(target):
    path = os.path.join(SEEDS, target)
    shutil.rmtree(path, ignore_errors=True)
    os.makedirs(path)
    return path


def write(path, name, data):
    with open(os.path.join(path, name), "wb") as f:
        f.write(data)
