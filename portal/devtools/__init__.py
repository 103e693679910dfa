"""Development tools: the benchmark, the data it runs on, load generators, screenshots and
Lighthouse. Installed only where DEVTOOLS=1 or TESTING=1 (the Makefile sets DEVTOOLS), so a
production `manage.py help` does not list them."""
