from csvstats.cli import main

raise SystemExit(main())
