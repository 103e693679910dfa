"""Demo accounts, shared by `load_demo` and the `serve` banner so they never disagree."""

DEMO_PASSWORD = "partner-demo-2026"

DEMO_USERS = [
    # email, full name, is_staff, team slug or None, role
    ("staff@e31.example", "Sam Staff", True, None, None),
    ("ada@northwind.example", "Ada Okafor", False, "northwind-vision", "admin"),
    ("ben@northwind.example", "Ben Lindqvist", False, "northwind-vision", "member"),
    ("cy@heliosims.example", "Cy Marten", False, "helio-sims", "admin"),
]

DEMO_TEAMS = [
    ("northwind-vision", "Northwind Vision", "Northwind Robotics"),
    ("helio-sims", "Helio Sims", "Helio Climate Lab"),
]

DEMO_INVITATIONS = [("dee@northwind.example", "northwind-vision", "member")]
