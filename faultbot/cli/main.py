def main():
    from faultbot.paths import default_kb_dir, default_articles_dir
    print(default_kb_dir(), default_articles_dir())
