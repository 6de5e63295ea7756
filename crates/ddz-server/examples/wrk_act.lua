-- wrk script for the robot API load test (BENCHMARKS.md): POST one recorded act request
-- (crates/ddz-server/tests/data/robot_requests.jsonl, id 3: a classic mid-game decision,
-- every legal move allowed) to /v1/act.
--   wrk -t2 -c32 -d20s --latency -s crates/ddz-server/examples/wrk_act.lua 'http://127.0.0.1:8931/v1/act?bot=value'
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.body = [==[{"protocol":"ddz-jsonl/1","type":"act","id":3,"rules":"classic","laizi":[],"seat":1,"landlord_seat":2,"role":"landlord_up","hand":"333466899JJKAA22","cards_left":[15,16,18],"played":["58","6","47"],"bottom_cards_unplayed":"8T","history":[[2,"4"],[0,"5"],[1,"6"],[2,"7"],[0,"8"]],"last":{"seat":0,"cards":"8"},"multiplier":1,"base":3}]==]
