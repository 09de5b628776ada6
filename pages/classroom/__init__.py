"""Class mode: rooms, the store, question kinds, the teacher's and the phone's views."""
