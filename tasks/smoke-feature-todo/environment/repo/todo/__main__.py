from todo.cli import main

raise SystemExit(main())
