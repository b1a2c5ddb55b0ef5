function s = reverse(str)
% MATLAB's reverse (R2016b) for char rows and cell arrays of them.
  if iscell(str)
    s = cellfun(@fliplr, str, 'UniformOutput', false);
  else
    s = fliplr(str);
  end
end
