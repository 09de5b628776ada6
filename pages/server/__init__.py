"""The server: value guards, links, memory, warm start, and every private Streamlit access."""
