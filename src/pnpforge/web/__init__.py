"""`pnpforge serve`: the table page, set-up deals and checks, score sheets and builds on the players' phones.

Every page is generated from what a game folder declares (its game.yaml header, dealer options, set-up
picture, score `Input` model and `FIELDS`), through the same library calls the CLI makes; the web layer only
turns form fields into the files the CLI reads and results into HTML or JSON.
"""
