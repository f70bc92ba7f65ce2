; a stack falls together when the tile under it vanishes
; optimal 7 moves (simulator BFS)
; Board:
;   ########
;   #a.....#
;   #b...a.#
;   #x.x.b##
;   ########
(define (problem puzznic-stack-falls)
  (:domain puzznic)
  (:objects
    r2-c2 r2-c3 r2-c4 r2-c5 r2-c6 r2-c7 - cell
    r3-c2 r3-c3 r3-c4 r3-c5 r3-c6 r3-c7 - cell
    r4-c2 r4-c3 r4-c4 r4-c5 r4-c6 - cell
    tile-a tile-b tile-x - kind)
  (:init
    (falling)
    (= (total-cost) 0)
    (right-of r2-c2 r2-c3)
    (below r2-c2 r3-c2)
    (right-of r2-c3 r2-c4)
    (below r2-c3 r3-c3)
    (right-of r2-c4 r2-c5)
    (below r2-c4 r3-c4)
    (right-of r2-c5 r2-c6)
    (below r2-c5 r3-c5)
    (right-of r2-c6 r2-c7)
    (below r2-c6 r3-c6)
    (below r2-c7 r3-c7)
    (right-of r3-c2 r3-c3)
    (below r3-c2 r4-c2)
    (right-of r3-c3 r3-c4)
    (below r3-c3 r4-c3)
    (right-of r3-c4 r3-c5)
    (below r3-c4 r4-c4)
    (right-of r3-c5 r3-c6)
    (below r3-c5 r4-c5)
    (right-of r3-c6 r3-c7)
    (below r3-c6 r4-c6)
    (right-of r4-c2 r4-c3)
    (right-of r4-c3 r4-c4)
    (right-of r4-c4 r4-c5)
    (right-of r4-c5 r4-c6)
    (has r2-c2 tile-a)
    (empty r2-c3)
    (empty r2-c4)
    (empty r2-c5)
    (empty r2-c6)
    (empty r2-c7)
    (has r3-c2 tile-b)
    (empty r3-c3)
    (empty r3-c4)
    (empty r3-c5)
    (has r3-c6 tile-a)
    (empty r3-c7)
    (has r4-c2 tile-x)
    (empty r4-c3)
    (has r4-c4 tile-x)
    (empty r4-c5)
    (has r4-c6 tile-b)
  )
  (:goal (and
    (empty r2-c2) (empty r2-c3) (empty r2-c4) (empty r2-c5) (empty r2-c6) (empty r2-c7) (empty r3-c2) (empty r3-c3)
    (empty r3-c4) (empty r3-c5) (empty r3-c6) (empty r3-c7) (empty r4-c2) (empty r4-c3) (empty r4-c4) (empty r4-c5)
    (empty r4-c6)))
  (:metric minimize (total-cost)))
