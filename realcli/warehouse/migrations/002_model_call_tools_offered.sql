-- The tool names a harness offered in each model request (the effective tool pool).
alter table model_calls add column tools_offered varchar[];
