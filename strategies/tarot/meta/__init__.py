"""What the registry lists of each tarot strategy (name, description, parameters), one module per strategy named
as it: light to import; the policies are in the module of the same name one folder up."""
