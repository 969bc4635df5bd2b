from minisql.cli import main

raise SystemExit(main())
