"""Tools that write knowledge: drafting a KB entry from a log (``faultbot kb new``) and writing YAML
the way people write the KB. Above ``faultbot.kb``, which only reads, and above the ingest and
extract packages whose records and observations a draft is made of."""
