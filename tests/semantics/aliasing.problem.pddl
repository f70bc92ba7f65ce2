(define (problem aliasing-1) (:domain aliasing)
  (:objects s1 s2 - spot)
  (:init (at base) (= (visits base) 0) (= (visits s1) 0) (= (visits s2) 0) (= (moves) 0))
  (:goal (and (at s1) (marked s1) (flag) (>= (visits s1) 4))))
