; a tile falls because the one below it was pushed away
; optimal 3 moves (simulator BFS)
; Board:
;   ######
;   #a...#
;   #b...#
;   #a##.#
;   ####b#
;   ######
(define (problem puzznic-pushed-away)
  (:domain puzznic)
  (:objects
    r2-c2 r2-c3 r2-c4 r2-c5 - cell
    r3-c2 r3-c3 r3-c4 r3-c5 - cell
    r4-c2 r4-c5 - cell
    r5-c5 - cell
    tile-a tile-b - kind)
  (:init
    (falling)
    (= (total-cost) 0)
    (right-of r2-c2 r2-c3)
    (below r2-c2 r3-c2)
    (right-of r2-c3 r2-c4)
    (below r2-c3 r3-c3)
    (right-of r2-c4 r2-c5)
    (below r2-c4 r3-c4)
    (below r2-c5 r3-c5)
    (right-of r3-c2 r3-c3)
    (below r3-c2 r4-c2)
    (right-of r3-c3 r3-c4)
    (right-of r3-c4 r3-c5)
    (below r3-c5 r4-c5)
    (below r4-c5 r5-c5)
    (has r2-c2 tile-a)
    (empty r2-c3)
    (empty r2-c4)
    (empty r2-c5)
    (has r3-c2 tile-b)
    (empty r3-c3)
    (empty r3-c4)
    (empty r3-c5)
    (has r4-c2 tile-a)
    (empty r4-c5)
    (has r5-c5 tile-b)
  )
  (:goal (and
    (empty r2-c2) (empty r2-c3) (empty r2-c4) (empty r2-c5) (empty r3-c2) (empty r3-c3) (empty r3-c4) (empty r3-c5)
    (empty r4-c2) (empty r4-c5) (empty r5-c5)))
  (:metric minimize (total-cost)))
