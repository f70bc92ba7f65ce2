; two colours: two kinds, each pair brought together separately
; optimal 6 moves (simulator BFS)
; Board:
;   #######
;   #a...b#
;   #b...a#
;   #######
(define (problem puzznic-two-colours)
  (:domain puzznic)
  (:objects
    r2-c2 r2-c3 r2-c4 r2-c5 r2-c6 - cell
    r3-c2 r3-c3 r3-c4 r3-c5 r3-c6 - cell
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
    (right-of r2-c5 r2-c6)
    (below r2-c5 r3-c5)
    (below r2-c6 r3-c6)
    (right-of r3-c2 r3-c3)
    (right-of r3-c3 r3-c4)
    (right-of r3-c4 r3-c5)
    (right-of r3-c5 r3-c6)
    (has r2-c2 tile-a)
    (empty r2-c3)
    (empty r2-c4)
    (empty r2-c5)
    (has r2-c6 tile-b)
    (has r3-c2 tile-b)
    (empty r3-c3)
    (empty r3-c4)
    (empty r3-c5)
    (has r3-c6 tile-a)
  )
  (:goal (and
    (empty r2-c2) (empty r2-c3) (empty r2-c4) (empty r2-c5) (empty r2-c6) (empty r3-c2) (empty r3-c3) (empty r3-c4)
    (empty r3-c5) (empty r3-c6)))
  (:metric minimize (total-cost)))
