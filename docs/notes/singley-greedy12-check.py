# Working check from the reading in singley-1d-reading.md: Greedy 1 and 2 over all secrets (issue 3).
# fast bulls-only G1 (Singley Greedy 1, reading A) and G2 (reading K, no final submission)
import sys, statistics as st
from itertools import product
def g1(sec,n,m):
    # returns guesses used
    cnt=0; g=[1]*n
    for i in range(n):
        g[i]=1
        b1=sum(1 for k in range(n) if g[k]==sec[k]); cnt+=1
        if b1==n: return cnt
        found=None
        for j in range(2,m+1):
            g[i]=j; b=b1-(sec[i]==1)+(sec[i]==j); cnt+=1
            if b==n: return cnt
            if b>b1: found=j;break
            if b<b1: found=1;break
        g[i]=found
    raise Exception
def g2(sec,n,m):
    cnt=1; b1=sum(1 for x in sec if x==1)
    if b1==n: return 1
    for i in range(n):
        if b1-i==n-i: return cnt      # all remaining stones are colour 1: code determined
        found=None
        for j in range(2,m):
            b=b1-(sec[i]==1)+(sec[i]==j); cnt+=1
            if b==n: return cnt
            if b>b1: found=j;break
            if b<b1: found=1;break
        if found is None: found=m
        if found!=1: b1+=1
    return cnt   # code determined, final guess not submitted
n,m=int(sys.argv[1]),int(sys.argv[2])
for name,f in (('G1',g1),('G2',g2)):
    from collections import Counter
    h=Counter(f(s,n,m) for s in product(range(1,m+1),repeat=n))
    N=sum(h.values()); S=sum(k*v for k,v in h.items()); SS=sum(k*k*v for k,v in h.items())
    mean=S/N; sd=((SS-S*S/N)/(N-1))**.5
    xs=sorted(h.elements()); med=st.median(xs)
    print(n,m,name,'mean %.7f median %s sd %.7f max %d'%(mean,med,sd,max(h)),flush=True)
