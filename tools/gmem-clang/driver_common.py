"""gmem-clang++'s shared pieces: where the driver script is and what CMake
configured into it, the error type, and small helpers.

Part of the gmem-clang++ driver (gmem-clang++.py; docs/DRIVER.md). Python 3
standard library only.
"""

import os
import re
import shlex

PROG = "gmem-clang++"


# The driver's modules live in <bin>/../share/gmem (next to the script in
# the source tree), away from the script, and only the script is filled in
# by CMake: the script hands over its own path and configured values at
# start-up (set_driver_script), and the functions that look for files next
# to the driver, or use a configured default, read them from here.
DRIVER_FILE = ""
CONFIGURED_CLANG = ""
CONFIGURED_PLUGIN = ""
CONFIGURED_LIBDIR = ""
VERSION = ""


def set_driver_script(driver_file, clang, plugin, libdir, version):
    global DRIVER_FILE, CONFIGURED_CLANG, CONFIGURED_PLUGIN, CONFIGURED_LIBDIR, VERSION
    DRIVER_FILE = driver_file
    CONFIGURED_CLANG = clang
    CONFIGURED_PLUGIN = plugin
    CONFIGURED_LIBDIR = libdir
    VERSION = version


class DriverError(Exception):
    """A failure: one line for the user, plus a phase's output to show first."""

    def __init__(self, message, details="", code=1):
        super().__init__(message)
        self.message = message
        self.details = details
        self.code = code


ERROR_LINE = re.compile(r"\berror\b|\bfatal\b|undefined reference|cannot find|"
                        r"multiple definition|No such file", re.IGNORECASE)
BORING_LINE = re.compile(r"linker command failed|errors? generated|^\s*collect2")


def first_error_line(text):
    for line in text.splitlines():
        if ERROR_LINE.search(line) and not BORING_LINE.search(line):
            return line.strip()
    for line in text.splitlines():
        if line.strip():
            return line.strip()
    return ""


def quote(cmd):
    return " ".join(shlex.quote(c) for c in cmd)


def is_exe(path):
    return bool(path) and os.path.isfile(path) and os.access(path, os.X_OK)


def configured(value):
    return value if value and not value.startswith("@") else ""


def sanitize(name):
    return re.sub(r"[^A-Za-z0-9_.+-]", "_", name) or "input"
