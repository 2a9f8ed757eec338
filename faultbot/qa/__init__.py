"""Question answering over the articles and the KB: tokens, a BM25 index, passages and answers."""
