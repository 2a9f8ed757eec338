"""Cluster-wide diagnosis: which rank of which communicator failed first, across every node's logs.

``cluster_view(diagnosis, kb, echo_entries)`` tabulates the records the engine reasoned over by
communicator and rank and names the suspect ranks, each with the reasons the HCCL article gives.
"""
