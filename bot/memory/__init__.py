"""The memory bank: the store port, its Postgres adapter, recall and the truth machine."""
