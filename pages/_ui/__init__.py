"""UI glue shared by the pages, one module per job (not pages themselves)."""
